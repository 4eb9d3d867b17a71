"""The machinery the site runs on: its event loop's helpers, the channel layer, the
limits, throttles and error shapes, the health checks and the database roles. It imports
no app: the apps build on it, and config configures it."""
