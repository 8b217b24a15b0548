#!/usr/bin/env bash
# Stops what the quick start started.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
stop_stack app
say "Stopped api, worker and web"
