"""The write path (:mod:`.path`) and what it needs below it: the tables this process
knows (:mod:`.tables`), the vault of deal secrets, the read model's projection and the
automatic moves' schedule."""
