"""The site served for the browser tests as a club's server serves it: uvicorn (ASGI), in a
thread of the test process, on the test database. pytest-django's `live_server` speaks WSGI,
which cannot stream the live pages' server-sent events.

`LiveSite.restart()` stops the server and starts it again on the same address, as a laptop's
server restarted in the middle of a club night: the pages must catch up by themselves."""

import socket
import threading
import time

import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LiveSite:
    """`url` ("http://127.0.0.1:PORT"), served until `stop()`."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.application = ASGIStaticFilesHandler(get_asgi_application())
        self.server = self.thread = None
        self.start()

    def start(self) -> None:
        config = uvicorn.Config(self.application, host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="off", loop="asyncio",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True,
                                       name="live-site")
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test site did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.server.force_exit = True  # open streams do not hold the shutdown
        self.thread.join(10)

    def restart(self) -> None:
        self.stop()
        self.start()
