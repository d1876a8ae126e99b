import HeraldCore
import Testing

@Suite("JSON syntax check")
struct JSONSyntaxTests {
    @Test(arguments: [
        #"{}"#, #" { "a" : 1 } "#, #"{"aps":{"alert":{"title":"Ana","body":"Hi \u00e9 \n"},"badge":0,"sound":null},"x":[1,-2.5e10,true,false,"s"]}"#,
        "{\"emoji\":\"😀 é 中\"}", #"{"n":0.5,"m":-0,"e":1E+2}"#,
    ])
    func acceptsObjects(_ text: String) {
        #expect(JSONSyntax.isObject(Array(text.utf8)))
    }

    @Test(arguments: [
        "", "[]", "1", #""s""#, "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{a:1}"#, #"{"a":01}"#, #"{"a":1.}"#,
        #"{"a":.5}"#, #"{"a":tru}"#, #"{"a":"\x"}"#, #"{"a":"\u12"}"#, "{\"a\":\"tab\there\"}", #"{} {}"#, #"{"a":[1,]}"#,
        #"{"a":1e}"#, #"{'a':1}"#,
    ])
    func refusesEverythingElse(_ text: String) {
        #expect(!JSONSyntax.isObject(Array(text.utf8)))
    }

    @Test func refusesMalformedUTF8AndDeepNesting() {
        #expect(!JSONSyntax.isObject([0x7B, 0x22, 0xC3, 0x22, 0x3A, 0x31, 0x7D]))  // {"\xC3":1}
        #expect(!JSONSyntax.isObject([0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D]))  // a UTF-16 surrogate
        #expect(!JSONSyntax.isObject(Array(("{\"a\":" + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}").utf8)))
        #expect(JSONSyntax.isObject(Array(("{\"a\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}").utf8)))
    }
}
