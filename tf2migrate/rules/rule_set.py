"""The rule set the CLI hands the engine (`engine.rule_set.RuleSet`): the manifest's rules and the tables.

Free of LibCST until a question needs a rule: a run the cache or the pre-pass settles asks only for the wake
words (`wake_words.py`, read from `manifest.py`).
"""
from __future__ import annotations



class ManifestRules:
    """Answers the engine's questions from `manifest.py`, `registry.py` and the tables."""

    def triggers(self):
        from tf2migrate.rules.wake_words import triggers

        return triggers()

    def triggers_from_json(self, data):
        from tf2migrate.rules.wake_words import Triggers

        return Triggers.from_json(data)

    def plugins(self, ctx) -> list:
        from tf2migrate.rules import registry

        return registry.plugins(ctx)

    def fast_plugins(self, ctx) -> list:
        from tf2migrate.rules import registry

        return registry.fast_plugins(ctx)

    def infos(self) -> dict:
        from tf2migrate.rules import registry

        return registry.all_infos()

    def importable(self):
        from tf2migrate.rules.tables import load_tables

        return load_tables().importable

    def splice(self, text: str, tree, path: str, selection, package):
        from tf2migrate.rules import table_only

        return table_only.rewrite(text, tree, path, selection, package)

    def ast_reports_exact(self, tree) -> bool:
        """The `Ast.REPORTS` rule (TFM667) places its `ast` reports as the traversal does, or says it cannot."""
        from tf2migrate.rules.upgrade.shape_places import places

        return places(tree) is not None

    def shared_words_count(self, tree, imports) -> bool:
        """The rule that shares the `Ast.ANSWERS` rules' words (`Acts.ON_ESTIMATOR`) may act here (rules/idle.py)."""
        from tf2migrate.rules.idle import estimator_may_act

        return estimator_may_act(tree, imports)

    def acts_on_imports(self, tree, words: set) -> bool:
        """An import of tf.contrib is removed or reported, used or not (TFM343, unconverted/contrib_imports.py)."""
        from tf2migrate.rules.unconverted.contrib_paths import imports_contrib

        return "contrib" in words and imports_contrib(tree)

    def load(self) -> None:
        """The rules, the tables and the splice path, with what each builds on first use: a forked worker
        inherits them instead of making them again for its first file (0.02 s apiece)."""
        from tf2migrate.rules import registry, table_only
        from tf2migrate.rules.tables import load_tables

        load_tables()
        registry.all_infos()
        table_only.warm()


RULES = ManifestRules()
