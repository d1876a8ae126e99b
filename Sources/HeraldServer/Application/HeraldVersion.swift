/// Which Herald this is: `herald --version`, the start-up log line and `/health`.
public enum HeraldVersion {
    public static let version = "0.9.0"
    /// The commit a release was built from; `Scripts/release.sh` writes it into `BuildCommit`
    /// before building. A build from a working tree says "development build".
    public static let commit: String? = BuildCommit.value

    public static var description: String {
        "herald \(version) (\(commit.map { "commit \($0)" } ?? "development build"))"
    }
}
