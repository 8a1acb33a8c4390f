from holodeck_mt.app.cli import main

raise SystemExit(main())
