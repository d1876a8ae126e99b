/// A strict RFC 8259 syntax check, one pass over the bytes with no allocation: whether a payload
/// is a JSON object before it goes to a provider. Cheap enough for every push (a Foundation
/// parse of a 150-byte payload costs more than the rest of the send).
public enum JSONSyntax {
    /// Whether `bytes` is exactly one JSON object, with optional surrounding whitespace.
    public static func isObject<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ isObject(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(bytes).withUnsafeBytes { isObject($0) }
    }

    /// Whether `bytes` is exactly one JSON object, with optional surrounding whitespace.
    public static func isObject(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.peek() == UInt8(ascii: "{"), scanner.value(depth: 0) else { return false }
        scanner.skipWhitespace()
        return scanner.atEnd
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        static var maximumDepth: Int { 256 }

        var atEnd: Bool { index == bytes.count }

        func peek() -> UInt8? { atEnd ? nil : bytes[index] }

        mutating func next() -> UInt8? {
            guard !atEnd else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { _ = next() }
        }

        mutating func expect(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            _ = next()
            return true
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < Self.maximumDepth else { return false }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            case .some(let byte) where byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39): return number()
            default: return false
            }
        }

        mutating func object(depth: Int) -> Bool {
            _ = next()
            skipWhitespace()
            if expect(UInt8(ascii: "}")) { return true }
            while true {
                skipWhitespace()
                guard string() else { return false }
                skipWhitespace()
                guard expect(UInt8(ascii: ":")), value(depth: depth + 1) else { return false }
                skipWhitespace()
                if expect(UInt8(ascii: "}")) { return true }
                guard expect(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func array(depth: Int) -> Bool {
            _ = next()
            skipWhitespace()
            if expect(UInt8(ascii: "]")) { return true }
            while true {
                guard value(depth: depth + 1) else { return false }
                skipWhitespace()
                if expect(UInt8(ascii: "]")) { return true }
                guard expect(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            var pointer = word.utf8Start
            for _ in 0..<word.utf8CodeUnitCount {
                guard next() == pointer.pointee else { return false }
                pointer += 1
            }
            return true
        }

        mutating func digits() -> Int {
            var count = 0
            while let byte = peek(), byte >= 0x30 && byte <= 0x39 {
                _ = next()
                count += 1
            }
            return count
        }

        mutating func number() -> Bool {
            _ = expect(UInt8(ascii: "-"))
            if expect(UInt8(ascii: "0")) {
                if let byte = peek(), byte >= 0x30 && byte <= 0x39 { return false }
            } else if digits() == 0 {
                return false
            }
            if expect(UInt8(ascii: ".")), digits() == 0 { return false }
            if expect(UInt8(ascii: "e")) || expect(UInt8(ascii: "E")) {
                if !expect(UInt8(ascii: "+")) { _ = expect(UInt8(ascii: "-")) }
                if digits() == 0 { return false }
            }
            return true
        }

        /// A string, its escapes and its UTF-8 (well-formed, no surrogates, no overlong forms).
        mutating func string() -> Bool {
            guard expect(UInt8(ascii: "\"")) else { return false }
            while let byte = next() {
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    switch next() {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let hex = next(), (hex >= 0x30 && hex <= 0x39) || (hex | 0x20 >= 0x61 && hex | 0x20 <= 0x66) else { return false }
                        }
                    default:
                        return false
                    }
                case 0x00..<0x20:
                    return false
                case 0x20..<0x80:
                    continue
                default:
                    guard utf8Sequence(lead: byte) else { return false }
                }
            }
            return false
        }

        mutating func utf8Sequence(lead: UInt8) -> Bool {
            let count: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0: count = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED: count = 2; high = 0x9F
            case 0xF0: count = 3; low = 0x90
            case 0xF1...0xF3: count = 3
            case 0xF4: count = 3; high = 0x8F
            default: return false
            }
            for position in 0..<count {
                guard let byte = next() else { return false }
                let range: ClosedRange<UInt8> = position == 0 ? low...high : 0x80...0xBF
                guard range.contains(byte) else { return false }
            }
            return true
        }
    }
}
