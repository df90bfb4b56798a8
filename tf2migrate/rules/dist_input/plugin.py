"""The TFM5xx lints as one plugin: they only report, so they run once at the end of the pass."""
from __future__ import annotations

from tf2migrate.rules.base import Plugin
from tf2migrate.rules.dist_input import infos, loops, pipeline
from tf2migrate.rules.manifest import DISTRIBUTED_INPUT


class DistributedInput(Plugin):
    infos = infos.ALL

    def reads_whole_module(self) -> bool:
        return any(word in self.ctx.text for word in DISTRIBUTED_INPUT)  # the lints read the whole module

    def leave_module(self, original, updated):
        if not any(word in self.ctx.text for word in DISTRIBUTED_INPUT):
            return updated  # nothing is distributed here: skip the whole-module scans
        for find in (loops.find, pipeline.find):
            for node, code, message in find(self.ctx, original):
                self.ctx.report(node, code, message)
        return updated
