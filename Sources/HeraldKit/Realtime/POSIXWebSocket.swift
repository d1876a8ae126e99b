import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
import Glibc
import Synchronization

/// RFC 6455 over a blocking POSIX socket on a thread of its own: the upgrade, text frames
/// (fragmented or not), pongs for pings, and close. `ws://` only.
final class POSIXWebSocket: Sendable {
    private let descriptor: Mutex<Int32>

    private init(descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    static func messages(url: URL) -> AsyncThrowingStream<String, any Error> {
        AsyncThrowingStream { continuation in
            let thread = Thread {
                do {
                    let socket = try connect(url)
                    continuation.onTermination = { _ in socket.close() }
                    try socket.read { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            thread.start()
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func connect(_ url: URL) throws -> POSIXWebSocket {
        guard url.scheme == "ws", let host = url.host else { throw Failure(description: "only ws:// URLs on this platform") }
        let port = url.port ?? 80
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { throw Failure(description: "cannot resolve \(host)") }
        defer { freeaddrinfo(found) }
        let fd = Glibc.socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        guard Glibc.connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            Glibc.close(fd)
            throw Failure(description: "cannot connect to \(host):\(port)")
        }
        let socket = POSIXWebSocket(descriptor: fd)
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        try socket.write(
            Array(
                "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
                    .utf8
            )
        )
        var head: [UInt8] = []
        while !head.ends(with: [13, 10, 13, 10]) {
            head.append(contentsOf: try socket.read(count: 1))
            if head.count > 16_384 { throw Failure(description: "the upgrade answer is too long") }
        }
        let status = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
        guard status.contains(" 101 ") else {
            socket.close()
            throw Failure(description: "no upgrade: \(status)")
        }
        return socket
    }

    /// Reads frames until the server closes; text messages go to `deliver`.
    func read(_ deliver: (String) -> Void) throws {
        var message: [UInt8] = []
        while true {
            let head = try read(count: 2)
            let final = head[0] & 0x80 != 0
            let opcode = head[0] & 0x0f
            var length = Int(head[1] & 0x7f)
            if length == 126 {
                let bytes = try read(count: 2)
                length = Int(bytes[0]) << 8 | Int(bytes[1])
            } else if length == 127 {
                length = try read(count: 8).reduce(0) { $0 << 8 | Int($1) }
            }
            let mask = head[1] & 0x80 != 0 ? try read(count: 4) : nil
            var payload = try read(count: length)
            if let mask { for index in payload.indices { payload[index] ^= mask[index % 4] } }
            switch opcode {
            case 0x1, 0x0:
                message += payload
                if final {
                    deliver(String(decoding: message, as: UTF8.self))
                    message.removeAll()
                }
            case 0x8:
                try? send(opcode: 0x8, payload: Array(payload.prefix(2)))
                close()
                return
            case 0x9:
                try send(opcode: 0xA, payload: payload)
            default:
                break
            }
        }
    }

    /// A masked frame, as clients send them.
    func send(opcode: UInt8, payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8 & 0xff), UInt8(payload.count & 0xff)]
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try write(frame)
    }

    func write(_ bytes: [UInt8]) throws {
        let fd = descriptor.withLock { $0 }
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(description: "the connection closed") }
            sent += written
        }
    }

    func read(count: Int) throws -> [UInt8] {
        let fd = descriptor.withLock { $0 }
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let read = bytes[got...].withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { throw Failure(description: "the connection closed") }
            got += read
        }
        return bytes
    }

    func close() {
        descriptor.withLock { fd in
            if fd >= 0 {
                Glibc.shutdown(fd, Int32(SHUT_RDWR))
                Glibc.close(fd)
                fd = -1
            }
        }
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
#endif
