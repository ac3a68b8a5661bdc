"""`python -m otel_grounding.relay`: the relay without the `otel-grounding` front."""

import sys

from otel_grounding.relay.cli import main

sys.exit(main())
