#!/usr/bin/python3
"""A real gRPC health server (grpc.health.v1.Health/Check on grpcio, the C core), for the
end-to-end test of podrun's hand-written gRPC probe client.

Listens on 127.0.0.1 on a free port and prints the port on stdout. Services: "" and "ok" are
SERVING, "down" is NOT_SERVING, anything else is unknown (a NOT_FOUND gRPC error, as the
reference health servicer answers). No protobuf code is generated: the messages are one field
each, encoded by hand.
"""
import sys
import time

import grpc

SERVING, NOT_SERVING = 1, 2


def service_of(request: bytes) -> str:
    # HealthCheckRequest { string service = 1; }: tag 0x0a, a one-byte length (names are short).
    if len(request) >= 2 and request[0] == 0x0A:
        return request[2 : 2 + request[1]].decode()
    return ""


def check(request: bytes, context) -> bytes:
    service = service_of(request)
    if service in ("", "ok"):
        status = SERVING
    elif service == "down":
        status = NOT_SERVING
    else:
        context.abort(grpc.StatusCode.NOT_FOUND, "unknown service")
    # HealthCheckResponse { ServingStatus status = 1; }: tag 0x08, the varint.
    return bytes([0x08, status])


def main() -> None:
    from concurrent import futures

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    handler = grpc.method_handlers_generic_handler(
        "grpc.health.v1.Health",
        {"Check": grpc.unary_unary_rpc_method_handler(check)},
    )
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    # Until the test kills it, or a bound, so a lost test never leaves it behind for long.
    time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 300)
    server.stop(0)


if __name__ == "__main__":
    main()
