/// Authenticated encryption of provider secrets at rest. `context` is bound to the ciphertext,
/// so a sealed secret copied to another provider or app does not open.
public protocol SecretBox: Sendable {
    func seal(_ plaintext: String, context: String) throws -> String
    func open(_ sealed: String, context: String) throws -> String
}
