from conformance.cli.main import main

raise SystemExit(main())
