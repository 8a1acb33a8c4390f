from holodeck_mt.cli import main

raise SystemExit(main())
