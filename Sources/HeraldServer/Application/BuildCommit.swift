/// The commit a release binary was built from (`Scripts/release.sh` fills it in for the build and
/// puts this file back); nil in a build from a working tree.
enum BuildCommit {
    static let value: String? = nil
}
