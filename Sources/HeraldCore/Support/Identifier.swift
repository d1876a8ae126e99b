import Foundation
import Synchronization

/// Random identifiers and bearer secrets, from the system's cryptographic generator.
public enum Identifier {
    private static let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// `count` base-62 characters (about 5.95 bits each).
    public static func random(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// A lower-case hexadecimal identifier of `bytes` random bytes (from the system's generator,
    /// eight bytes per call).
    public static func hex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes * 2)
        var word: UInt64 = 0
        for index in 0..<bytes {
            if index % 8 == 0 { word = generator.next() }
            let byte = UInt8(truncatingIfNeeded: word >> (UInt64(index % 8) * 8))
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A random (version 4) UUID, lower-case. Foundation's `UUID()` opens `/dev/urandom` for
    /// every one on Linux; this asks the system's generator for sixteen bytes.
    public static func uuid() -> String {
        var generator = SystemRandomNumberGenerator()
        var high: UInt64 = generator.next()
        var low: UInt64 = generator.next()
        high = (high & ~0xF000) | 0x4000  // version 4
        low = (low & ~(0xC000_0000_0000_0000 as UInt64)) | 0x8000_0000_0000_0000  // the RFC 4122 variant
        let text = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
        let digits = Array(text.utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (index, digit) in digits.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { out.append(UInt8(ascii: "-")) }
            out.append(digit)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `prefix`, the time in milliseconds (11 hexadecimal digits), a sequence (4) and 6 random
    /// bytes: ids made one after another sort together, so a table keyed by them grows at its end
    /// instead of at random pages of its index; and within a process they sort in the order they
    /// were made, even in the same millisecond (an event's id says which of two came later). They
    /// name rows and are no secret: the random part, which keeps processes sharing a database
    /// apart, comes from a generator seeded once by the system's (a system call for each would
    /// cost more than the rest of the id).
    public static func timeOrdered(_ prefix: String, now: Date = Date()) -> String {
        let ms = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        let (sequence, random) = sequences.withLock { ($0.next(for: ms), $0.random()) }
        var prefix = prefix
        return prefix.withUTF8 { head in
            // Written straight into the string's storage: this runs for every event and delivery.
            String(unsafeUninitializedCapacity: head.count + 27) { out in
                var at = out.initialize(fromContentsOf: head)
                func digits(_ value: UInt64, _ count: Int) {
                    for shift in stride(from: (count - 1) * 4, through: 0, by: -4) {
                        let digit = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0xF
                        out[at] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
                        at += 1
                    }
                }
                digits(ms & 0xFFF_FFFF_FFFF, 11)
                digits(sequence, 4)
                digits(random & 0xFFFF_FFFF_FFFF, 12)
                return at
            }
        }
    }

    private static let sequences = Mutex(Sequences())

    /// The last sequence number of each millisecond ids were recently made in. Per millisecond,
    /// not only the latest: clocks given by callers (a test's, ahead of or behind the system's)
    /// make ids beside the system's, and each keeps its own order. The millisecond of the last id
    /// is kept apart from the others: nearly every id is made in it, without hashing it twice.
    struct Sequences {
        private var latest: (ms: UInt64, sequence: UInt64)?
        /// The other milliseconds, with when each was last used.
        private var byMillisecond: [UInt64: (sequence: UInt64, used: UInt64)] = [:]
        private var uses: UInt64 = 0
        /// Milliseconds remembered beside the latest; the one used longest ago is forgotten first.
        static let capacity = 64
        /// SplitMix64 (Steele, Lea and Flood), seeded by the system's generator.
        private var state: UInt64 = {
            var system = SystemRandomNumberGenerator()
            return system.next()
        }()

        mutating func random() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func next(for ms: UInt64) -> UInt64 {
            uses += 1
            if let latest, latest.ms == ms {
                // Another in the same millisecond: one step on (past 65,535, the random part orders them).
                let sequence = min(latest.sequence + 1, 0xFFFF)
                self.latest = (ms, sequence)
                return sequence
            }
            let sequence = byMillisecond.removeValue(forKey: ms).map { min($0.sequence + 1, 0xFFFF) } ?? 0
            if let latest {
                if byMillisecond.count >= Self.capacity, let stale = byMillisecond.min(by: { $0.value.used < $1.value.used })?.key {
                    byMillisecond[stale] = nil
                }
                byMillisecond[latest.ms] = (latest.sequence, uses - 1)
            }
            latest = (ms, sequence)
            return sequence
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
