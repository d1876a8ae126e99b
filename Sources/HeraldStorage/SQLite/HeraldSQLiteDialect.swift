import SQLKit

/// SQLite's SQL as Herald writes it (the system's SQLite: 3.35 or newer, for RETURNING, UPSERT
/// and UPDATE … FROM): double-quoted identifiers, `?` placeholders in order, TRUE and FALSE.
struct HeraldSQLiteDialect: SQLDialect {
    var name: String { "sqlite" }
    var identifierQuote: any SQLKit.SQLExpression { SQLRaw("\"") }
    var literalStringQuote: any SQLKit.SQLExpression { SQLRaw("'") }
    func bindPlaceholder(at position: Int) -> any SQLKit.SQLExpression { SQLRaw("?") }
    func literalBoolean(_ value: Bool) -> any SQLKit.SQLExpression { SQLRaw(value ? "TRUE" : "FALSE") }
    var literalDefault: any SQLKit.SQLExpression { SQLLiteral.null }
    var supportsAutoIncrement: Bool { false }
    var autoIncrementClause: any SQLKit.SQLExpression { SQLRaw("AUTOINCREMENT") }
    var supportsIfExists: Bool { true }
    var supportsDropBehavior: Bool { false }
    var supportsReturning: Bool { true }
    var enumSyntax: SQLEnumSyntax { .unsupported }
    var upsertSyntax: SQLUpsertSyntax { .standard }
    var alterTableSyntax: SQLAlterTableSyntax { .init(allowsBatch: false) }
    var triggerSyntax: SQLTriggerSyntax { .init(create: [.supportsBody, .supportsCondition, .supportsUpdateColumns], drop: []) }
    var unionFeatures: SQLUnionFeatures { [.union, .unionAll, .intersect, .except] }
}
