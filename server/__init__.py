"""Running the site: the club network from a laptop, backups, the worker's heartbeat and the
demo."""
