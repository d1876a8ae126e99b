import Foundation
@testable import HeraldServer
import Testing

/// The dashboard's templates as files: every file in `Templates/` is compiled in and loads, and
/// every template the code renders exists.
@Suite("Dashboard templates")
struct DashboardTemplateTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/HeraldServer/Dashboard")

    @Test func everyTemplateFileIsCompiledIn() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("Templates").path)
            .filter { $0.hasSuffix(".mustache") }
        let names = Set(files.map { String($0.dropLast(".mustache".count)) })
        let cases = Set(DashboardTemplate.allCases.map(\.rawValue))
        #expect(names == cases, "files without a case: \(names.subtracting(cases).sorted()); without a file: \(cases.subtracting(names).sorted())")
        // What the binary holds is the file as it is now (Package.swift embeds that very file).
        for template in DashboardTemplate.allCases where names.contains(template.rawValue) {
            let text = try String(contentsOf: Self.folder.appendingPathComponent("Templates/\(template.rawValue).mustache"), encoding: .utf8)
            #expect(text == template.source + "\n", "\(template.rawValue).mustache differs from the compiled-in copy")
        }
        for (name, text) in [("dashboard.css", DashboardAssets.css), ("dashboard.js", DashboardAssets.js)] {
            #expect(try String(contentsOf: Self.folder.appendingPathComponent("Assets/\(name)"), encoding: .utf8) == text, "\(name)")
        }
    }

    @Test func everyTemplateLoadsAndEveryPartialItNamesExists() throws {
        let library = try DashboardTemplate.library()
        for template in DashboardTemplate.allCases {
            #expect(library.getTemplate(named: template.rawValue) != nil, "\(template.rawValue)")
            for partial in template.partials {
                #expect(DashboardTemplate(rawValue: partial) != nil, "\(template.rawValue) names the partial \(partial)")
            }
        }
        #expect(DashboardTemplate.user.partials == ["deliveries"])
    }
}
