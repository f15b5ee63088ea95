#!/bin/sh
# Issue 35: annotate --level on the 7-point sample with the short late-game plays settled by rollouts (the default
# since the sixteenth session) and the close plays valued cubefully: wall and CPU seconds, the share each tier
# re-values (docs/analysis.md, "Analysis levels"): runs/cube18/levels.sh, its results in runs/eg19/annotate_levels.txt.
# One core; from the repository root:
#   sh runs/eg19/levels.sh
OUT=runs/eg19/annotate_levels.txt exec sh runs/cube18/levels.sh
