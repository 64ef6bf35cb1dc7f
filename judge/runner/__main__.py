import sys

from judge.runner.main import main

sys.exit(main())
