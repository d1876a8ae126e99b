import Testing

@testable import HeraldStorage

/// The array literals bulk writes bind on PostgreSQL: quotes and backslashes escaped, everything
/// else (UTF-8 beyond ASCII included) as it is, NULL unquoted.
@Suite struct PostgresArrayLiteralTests {
    @Test func valuesAreWrittenAsPostgreSQLReadsThem() {
        let values: [BulkValue] = [.text(#"a"b\c"#), .null, .int(-7), .bool(true), .bool(false), .text("é 日本 🎉"), .text(""), .text(#"\""#)]
        #expect(PostgresArrayLiteral.text(values) == #"{"a\"b\\c",NULL,-7,t,f,"é 日本 🎉","","\\\""}"#)
        #expect(PostgresArrayLiteral.text([]) == "{}")
    }
}
