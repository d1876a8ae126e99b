import Foundation
import HeraldModels
import Testing

@Suite("JSON text reader and writer")
struct JSONTextTests {
    @Test func readsEveryKindOfValue() throws {
        let value = try JSONValue(
            jsonText: #" {"s":"a\"b\\c\/d\n\u00e9\ud83d\ude00","n":[0,-0,1.5,-2e3,1E+2,123456789012345678],"t":true,"f":false,"z":null,"o":{}} "#
        )
        #expect(
            value
                == .object([
                    "s": .string("a\"b\\c/d\né😀"),
                    "n": .array([.number(0), .number(0), .number(1.5), .number(-2000), .number(100), .number(123_456_789_012_345_678)]),
                    "t": .bool(true), "f": .bool(false), "z": .null, "o": .object([:]),
                ])
        )
    }

    @Test(arguments: [
        "", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "tru", #""\x""#, #""\u12""#, "\"tab\there\"", "1 2", #""\ud83d""#, #""\ude00x""#,
        "{'a':1}", "-", "1e", "[", #"{"a" 1}"#, "nul", "1e999",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(throws: JSONValue.SyntaxError.self) { try JSONValue(jsonText: text) }
    }

    /// A name given twice keeps its last value; text beyond ASCII is read as given, and checked.
    @Test func readsRepeatedNamesAndTextBeyondASCII() throws {
        #expect(try JSONValue(jsonText: #"{"a":1,"b":2,"a":3}"#) == .object(["a": .number(3), "b": .number(2)]))
        #expect(try JSONValue(jsonText: #"{"é":"Ana 😀","ascii":"plain"}"#) == .object(["é": .string("Ana 😀"), "ascii": .string("plain")]))
        #expect(throws: JSONValue.SyntaxError.self) { try JSONValue(jsonBytes: Array(#"{"a":""#.utf8) + [0xFF, 0x22, 0x7D]) }
    }

    @Test func refusesMalformedUTF8AndDeepNesting() {
        #expect(throws: JSONValue.SyntaxError.self) { try JSONValue(jsonBytes: [0x22, 0xC3, 0x22]) }
        #expect(throws: JSONValue.SyntaxError.self) {
            try JSONValue(jsonText: String(repeating: "[", count: 300) + String(repeating: "]", count: 300))
        }
        #expect((try? JSONValue(jsonText: String(repeating: "[", count: 200) + String(repeating: "]", count: 200))) != nil)
    }

    @Test func writesCompactTextThatReadsBack() throws {
        let value = JSONValue.object([
            "b": .array([.number(1), .number(-2.5), .number(1e-7), .number(9_007_199_254_740_991), .null, .bool(false)]),
            "a": .string("quote \" backslash \\ slash / newline \n tab \t bell \u{07} é 😀"),
            "c": .object(["nested": .object([:]), "list": .array([])]),
        ])
        let text = String(decoding: value.jsonBytes(sortedKeys: true), as: UTF8.self)
        #expect(
            text
                == #"{"a":"quote \" backslash \\ slash / newline \n tab \t bell \u0007 é 😀","b":[1,-2.5,1e-07,9007199254740991,null,false],"c":{"list":[],"nested":{}}}"#
        )
        #expect(try JSONValue(jsonText: text) == value)
        #expect(try JSONValue(jsonBytes: value.jsonBytes()) == value)
        #expect(JSONValue.number(.nan).jsonBytes() == Array("null".utf8))
    }

    /// Whole numbers are written digit by digit: every digit count, both signs, zero (and
    /// negative zero), a millisecond timestamp, and the largest a double holds exactly; past it,
    /// the double's own text.
    @Test func writesWholeNumbersAsTheirDigits() {
        func text(_ number: Double) -> String { String(decoding: JSONValue.number(number).jsonBytes(), as: UTF8.self) }
        var power = 1.0
        for digits in 1...15 {
            #expect(text(power) == "1" + String(repeating: "0", count: digits - 1))
            #expect(text(-(power * 10 - 1)) == "-" + String(repeating: "9", count: digits))
            power *= 10
        }
        #expect(text(0) == "0")
        #expect(text(-0.0) == "0")
        #expect(text(1_764_230_400_123) == "1764230400123")
        #expect(text(-9_007_199_254_740_991) == "-9007199254740991")
        #expect(text(9_007_199_254_740_992) == "9007199254740992.0")
    }

    @Test func agreesWithFoundation() throws {
        let samples = [
            #"{"aps":{"alert":{"title":"Ana","body":"Hi"},"badge":3,"mutable-content":1},"cometchat":{"id":"x","n":[1,2.25,-3]}}"#,
            #"[{"a":[[[]]]},"\u0041\u00DF\u6771\uD834\uDD1E",-0.0,1e10,true]"#,
        ]
        for text in samples {
            let ours = try JSONValue(jsonText: text)
            let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            #expect(ours == foundation)
            let written = try JSONDecoder().decode(JSONValue.self, from: Data(ours.jsonBytes()))
            #expect(written == ours)
        }
    }

    /// An object described once: written as text by ``JSONObjectWriter`` (nested objects, commas
    /// after them) and built as a dictionary by ``JSONObjectBuilder``, the same object.
    @Test func theWriterAndTheBuilderMakeTheSameObject() throws {
        func describe<Sink: JSONObjectSink>(into sink: inout Sink) {
            sink.member("a", .number(1))
            sink.member("n") { nested in
                nested.member("x", .string("y\"z"))
                nested.member("empty") { _ in }
                nested.member("deep") { $0.member("k", .array([.bool(true), .null])) }
            }
            sink.member("b", .bool(true))
        }
        var writer = JSONObjectWriter()
        describe(into: &writer)
        let text = writer.finish()
        #expect(String(decoding: text, as: UTF8.self) == #"{"a":1,"n":{"x":"y\"z","empty":{},"deep":{"k":[true,null]}},"b":true}"#)
        #expect(try JSONValue(jsonBytes: text) == .object(JSONObjectBuilder.object { describe(into: &$0) }))
    }
}
