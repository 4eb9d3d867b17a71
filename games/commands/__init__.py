"""The commands: one keyword-only function per action (:mod:`.actions`), which checks
its input and hands the write path what to execute; and the rule of table aliases."""
