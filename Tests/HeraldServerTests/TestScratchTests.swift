import Foundation
import HeraldTestSupport
import Testing

/// The tests' files live in one folder of the test process's own, which the next run can tell
/// apart from a live run's (its process has ended).
@Suite("Test scratch folder")
struct TestScratchTests {
    @Test
    func aRunsFilesGoInItsOwnFolderAndAnEndedProcessIsToldApart() throws {
        let file = TestScratch.path("scratch", suffix: ".txt")
        #expect(file.deletingLastPathComponent().standardizedFileURL.path == TestScratch.folder.standardizedFileURL.path)
        #expect(file.lastPathComponent.hasPrefix("scratch-") && file.lastPathComponent.hasSuffix(".txt"))
        #expect(TestScratch.folder.lastPathComponent == "herald-tests-\(getpid())")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: TestScratch.folder.path, isDirectory: &isFolder) && isFolder.boolValue)

        #expect(!TestScratch.hasEnded(getpid()))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        #expect(TestScratch.hasEnded(process.processIdentifier))
    }
}
