"""The live table: the socket (:mod:`.consumer`), the socket's cursor over the log
(:mod:`.cursor`), and the process's fan-out of broadcasts (:mod:`.fanout`)."""
