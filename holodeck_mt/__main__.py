from holodeck_mt.app.entry import main

raise SystemExit(main())
