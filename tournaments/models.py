"""Championships, rounds and tables; no models yet."""
