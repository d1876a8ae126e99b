/// JSON text to and from ``JSONValue`` in one pass over the bytes, without Codable: strict RFC 8259
/// reading (well-formed UTF-8, no trailing commas, no leading zeros, depth bounded) and compact
/// writing. Several times faster than a `JSONDecoder`/`JSONEncoder` round through Codable, which
/// matters on paths taken once per event or per push.
extension JSONValue {
    /// The deepest nesting accepted.
    public static let maximumDepth = 256

    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        /// Byte offset of the problem.
        public var offset: Int
        public var reason: String

        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// Reads exactly one JSON value (surrounding whitespace allowed).
    public init<Bytes: Collection>(jsonBytes bytes: Bytes) throws where Bytes.Element == UInt8 {
        if let value = try bytes.withContiguousStorageIfAvailable({ try Self.read(UnsafeRawBufferPointer($0)) }) {
            self = value
        } else {
            self = try Array(bytes).withUnsafeBytes { try Self.read($0) }
        }
    }

    /// Reads exactly one JSON value from text.
    public init(jsonText text: String) throws {
        var text = text
        self = try text.withUTF8 { try Self.read(UnsafeRawBufferPointer($0)) }
    }

    static func read(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.atEnd else { throw reader.error("unexpected text after the value") }
        return value
    }

    /// Compact JSON text; keys sorted when `sortedKeys` (a stable form for storage and tests).
    public func jsonBytes(sortedKeys: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        write(into: &out, sortedKeys: sortedKeys)
        return out
    }

    /// Appends this value's compact JSON text.
    public func write(into out: inout [UInt8], sortedKeys: Bool = false) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): Self.write(number: value, into: &out)
        case .string(let value): Self.write(string: value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            func member(_ key: String, _ value: JSONValue) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                Self.write(string: key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out, sortedKeys: sortedKeys)
            }
            if sortedKeys {
                for key in object.keys.sorted() { member(key, object[key]!) }
            } else {
                for (key, value) in object { member(key, value) }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Whole numbers below 2^53 as integers, others in Swift's shortest round-trip form; NaN and
    /// infinities (which JSON cannot carry) as null.
    static func write(number value: Double, into out: inout [UInt8]) {
        if value.rounded() == value, abs(value) < 9.007_199_254_740_992e15 {
            write(integer: Int64(value), into: &out)
        } else if value.isFinite {
            out.append(contentsOf: value.description.utf8)
        } else {
            out.append(contentsOf: "null".utf8)
        }
    }

    /// Appends an integer's decimal digits, written straight into the text (timestamps, ids and
    /// counts in every payload), not made into a string first.
    static func write(integer value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends `string` as a JSON string, quoted and escaped. Read in place (a native string's
    /// bytes are contiguous): no copy of the string is made to be read, which on every push's
    /// payload was a retain and a release per string.
    public static func write(string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if string.utf8.withContiguousStorageIfAvailable({ appendEscaping($0, into: &out) }) == nil {
            var string = string
            string.withUTF8 { appendEscaping($0, into: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 text escaped for a JSON string: runs that need no escape (nearly all text)
    /// are copied whole.
    private static func appendEscaping(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var start = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            appendEscaped(byte, into: &out)
            start = index + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    private static func appendEscaped(_ byte: UInt8, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { digits in
                out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            }
        }
    }
}

/// The reader behind ``JSONValue/init(jsonBytes:)``.
struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    var index = 0
    /// The members of the objects being read, innermost last: one buffer for the whole text, so
    /// that an object's members are gathered without an array of their own grown for each.
    private var members: [(String, JSONValue)] = []

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var atEnd: Bool { index >= bytes.count }

    func peek() -> UInt8? { atEnd ? nil : bytes[index] }

    func error(_ reason: String) -> JSONValue.SyntaxError {
        JSONValue.SyntaxError(offset: index, reason: reason)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw error("nested deeper than \(JSONValue.maximumDepth) levels") }
        switch peek() {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case .some(let byte) where byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39): return .number(try number())
        case nil: throw error("unexpected end of the text")
        default: throw error("unexpected character")
        }
    }

    mutating func object(depth: Int) throws -> JSONValue {
        index += 1
        // Members are gathered first, so the dictionary is made once at its size (each key hashed
        // once, never rehashed as it grows); a name given twice keeps its last value. They go on
        // the reader's one buffer, after those of the objects this one is in, and leave it when
        // the object is made.
        skipWhitespace()
        if expect(UInt8(ascii: "}")) { return .object([:]) }
        let start = members.count
        defer { members.removeSubrange(start...) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard expect(UInt8(ascii: ":")) else { throw error("expected ':'") }
            skipWhitespace()
            let value = try value(depth: depth + 1)
            members.append((key, value))
            skipWhitespace()
            if expect(UInt8(ascii: "}")) { return .object(Dictionary(members[start...], uniquingKeysWith: { _, last in last })) }
            guard expect(UInt8(ascii: ",")) else { throw error("expected ',' or '}'") }
        }
    }

    mutating func array(depth: Int) throws -> JSONValue {
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if expect(UInt8(ascii: "]")) { return .array(array) }
        while true {
            skipWhitespace()
            array.append(try value(depth: depth + 1))
            skipWhitespace()
            if expect(UInt8(ascii: "]")) { return .array(array) }
            guard expect(UInt8(ascii: ",")) else { throw error("expected ',' or ']'") }
        }
    }

    mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of the text") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw error("unexpected character") }
        index += count
    }

    mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        return index - start
    }

    mutating func number() throws -> Double {
        let start = index
        let negative = expect(UInt8(ascii: "-"))
        if expect(UInt8(ascii: "0")) {
            if let byte = peek(), byte >= 0x30 && byte <= 0x39 { throw error("a number has a leading zero") }
        } else if digits() == 0 {
            throw error("a number needs digits")
        }
        var integral = true
        if expect(UInt8(ascii: ".")) {
            integral = false
            guard digits() > 0 else { throw error("a fraction needs digits") }
        }
        if expect(UInt8(ascii: "e")) || expect(UInt8(ascii: "E")) {
            integral = false
            if !expect(UInt8(ascii: "+")) { _ = expect(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw error("an exponent needs digits") }
        }
        // Up to 15 digits are exact in a Double and cannot overflow an Int64.
        let count = index - start - (negative ? 1 : 0)
        if integral, count <= 15 {
            var value: Int64 = 0
            for position in (start + (negative ? 1 : 0))..<index { value = value * 10 + Int64(bytes[position] - 0x30) }
            return Double(negative ? -value : value)
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("the number is out of range") }
        return value
    }

    /// A string: its escapes decoded (surrogate pairs joined), its UTF-8 checked.
    mutating func string() throws -> String {
        index += 1
        let start = index
        // The common case: no escapes, ASCII (nothing to check) or valid UTF-8 taken as is.
        var high: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return high < 0x80 ? String(decoding: slice, as: UTF8.self) : try text(slice, at: start)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character in a string") }
            high |= byte
            index += 1
        }
        var scalars: [UInt8] = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try scalars.withUnsafeBytes { try text($0, at: start) }
            case UInt8(ascii: "\\"):
                guard let escape = peek() else { throw error("unexpected end of the text") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard expect(UInt8(ascii: "\\")), expect(UInt8(ascii: "u")) else { throw error("a lone surrogate in a string") }
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate in a string") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("a lone surrogate in a string")
                    }
                    scalars.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
                default:
                    throw error("an unknown escape in a string")
                }
            case 0x00..<0x20:
                throw error("a control character in a string")
            default:
                scalars.append(byte)
            }
        }
        throw error("an unterminated string")
    }

    mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of the text") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw error("a bad \\u escape")
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }

    func text(_ utf8: UnsafeRawBufferPointer, at offset: Int) throws -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw JSONValue.SyntaxError(offset: offset, reason: "a string is not valid UTF-8")
        }
        return text
    }
}
