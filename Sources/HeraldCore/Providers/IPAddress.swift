import Foundation

/// An IPv4 or IPv6 address parsed from text, with the ranges that are not the public internet.
public struct IPAddress: Sendable, Equatable {
    /// 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    public init?(_ text: String) {
        if let v4 = Self.parseV4(Substring(text)) {
            bytes = v4
        } else if let v6 = Self.parseV6(text) {
            bytes = v6
        } else {
            return nil
        }
    }

    public var isPubliclyRoutable: Bool {
        if bytes.count == 4 { return Self.isPublicV4(bytes) }
        let b = bytes
        if b.allSatisfy({ $0 == 0 }) { return false }  // ::
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return false }  // ::1
        if b[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local
        if b[0] == 0xFF { return false }  // multicast
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return false }  // documentation
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF {  // ::ffff:a.b.c.d
            return Self.isPublicV4(Array(b[12..<16]))
        }
        if b[0..<12].allSatisfy({ $0 == 0 }) { return Self.isPublicV4(Array(b[12..<16])) }  // ::a.b.c.d
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B && b[4..<12].allSatisfy({ $0 == 0 }) {  // NAT64
            return Self.isPublicV4(Array(b[12..<16]))
        }
        return true
    }

    static func isPublicV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _): return false
        case (100, 64...127): return false  // carrier-grade NAT
        case (169, 254): return false  // link-local, cloud metadata
        case (172, 16...31): return false
        case (192, 168): return false
        case (192, 0) where b[2] == 0 || b[2] == 2: return false
        case (198, 18...19): return false  // benchmarking
        case (198, 51) where b[2] == 100: return false
        case (203, 0) where b[2] == 113: return false
        case (224...255, _): return false  // multicast, reserved, broadcast
        default: return true
        }
    }

    static func parseV4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCIIDigit), let value = UInt8(part) else { return nil }
            out.append(value)
        }
        return out
    }

    static func parseV6(_ raw: String) -> [UInt8]? {
        var text = Substring(raw)
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        guard text.contains(":") else { return nil }
        var tail: [UInt8] = []
        if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains(".") {
            guard let v4 = parseV4(text[text.index(after: lastColon)...]) else { return nil }
            tail = v4
            text = text[...lastColon]
            if text.hasSuffix(":") && !text.hasSuffix("::") { text = text.dropLast() }
        }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { return nil }
                out.append(value)
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        let rest = halves.count == 2 ? groups(halves[1]) : []
        guard let rest else { return nil }
        let wanted = 8 - tail.count / 2
        var all: [UInt16]
        if halves.count == 2 {
            guard head.count + rest.count < wanted else { return nil }
            all = head + Array(repeating: 0, count: wanted - head.count - rest.count) + rest
        } else {
            guard head.count == wanted else { return nil }
            all = head
        }
        var bytes: [UInt8] = all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        bytes += tail
        return bytes.count == 16 ? bytes : nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
