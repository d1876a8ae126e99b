import NIOCore
import PostgresNIO
import Testing

@testable import HeraldStorage

/// The typed arrays bulk writes bind on PostgreSQL, in its binary array format: a header (one
/// dimension, whether any element is NULL, the element type, the length, lower bound 1), then
/// each element as its length and bytes, -1 for NULL. Every repository test on PostgreSQL reads
/// back what went in this way; these pin the bytes.
@Suite struct PostgresBulkArrayTests {
    private func bytes(_ kind: BulkColumn.Kind, _ values: [BulkValue]) throws -> [UInt8] {
        var buffer = ByteBuffer()
        try PostgresBulkArray(kind: kind, values: values).encode(into: &buffer, context: .default)
        return Array(buffer.readableBytesView)
    }

    private func int32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    @Test func textKeepsEveryByteAsItIsAndMarksNull() throws {
        let values: [BulkValue] = [.text(#"a"b\c"#), .null, .text("é 日本 🎉"), .text(""), .int(-7)]
        var expected = int32(1) + int32(1) + int32(25) + int32(5) + int32(1)
        expected += int32(Int32(#"a"b\c"#.utf8.count)) + Array(#"a"b\c"#.utf8)
        expected += int32(-1)
        expected += int32(Int32("é 日本 🎉".utf8.count)) + Array("é 日本 🎉".utf8)
        expected += int32(0)
        expected += int32(2) + Array("-7".utf8)
        #expect(try bytes(.text, values) == expected)
    }

    @Test func numbersAndFlagsAreWrittenInTheirColumnsWidth() throws {
        let bigints = int32(1) + int32(0) + int32(20) + int32(2) + int32(1)
        let one: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]
        let minusTwo: [UInt8] = [255, 255, 255, 255, 255, 255, 255, 254]
        #expect(try bytes(.bigint, [.int(1), .int(-2)]) == bigints + int32(8) + one + int32(8) + minusTwo)
        let integers = int32(1) + int32(1) + int32(23) + int32(2) + int32(1)
        #expect(try bytes(.integer, [.int(3), .null]) == integers + int32(4) + int32(3) + int32(-1))
        let flags = int32(1) + int32(0) + int32(16) + int32(2) + int32(1)
        #expect(try bytes(.boolean, [.bool(true), .bool(false)]) == flags + int32(1) + [1] + int32(1) + [0])
    }

    @Test func anEmptyArrayHasNoDimension() throws {
        #expect(try bytes(.text, []) == int32(0) + int32(0) + int32(25))
    }

    @Test func aValueItsColumnCannotHoldIsRefused() {
        #expect(throws: BulkValueMismatch.self) { try bytes(.bigint, [.text("7")]) }
        #expect(throws: BulkValueMismatch.self) { try bytes(.integer, [.int(Int64(Int32.max) + 1)]) }
    }
}
