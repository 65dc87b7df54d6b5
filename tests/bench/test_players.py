"""bench's HTTP client (bench/players.py) against a stand-in server on a socket."""

import re
import socket
import struct
import threading

from bench.players import Client

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"


def read_request(connection: socket.socket) -> bytes:
    """A whole request, its body too (a client may send it apart from the headers); returns
    its first line."""
    received = b""
    while b"\r\n\r\n" not in received:
        received += connection.recv(65536)
    head, body = received.split(b"\r\n\r\n", 1)
    length = re.search(rb"(?im)^content-length: *(\d+)", head)
    while length and len(body) < int(length[1]):
        body += connection.recv(65536)
    return head.split(b"\r\n", 1)[0]


def test_a_request_on_a_kept_alive_connection_the_server_dropped_goes_on_a_new_one():
    listener = socket.create_server(("127.0.0.1", 0))
    requests: list[bytes] = []
    dropped = threading.Event()

    def serve() -> None:
        for _ in range(2):
            connection, _ = listener.accept()
            requests.append(read_request(connection))
            connection.sendall(ANSWER)
            # Dropped at once with a reset, as a server's keep-alive timeout can while the
            # client is about to write: the client's next write then fails.
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()
            dropped.set()

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    client = Client(f"http://127.0.0.1:{listener.getsockname()[1]}")
    assert client.call("GET", "/first")[0] == {}
    # Once the server has dropped it, the reset has arrived: on loopback it comes at once.
    assert dropped.wait(timeout=10)
    assert client.call("POST", "/second", {"action": "call"})[0] == {}
    server.join(timeout=10)
    listener.close()
    assert requests == [b"GET /first HTTP/1.1", b"POST /second HTTP/1.1"]
