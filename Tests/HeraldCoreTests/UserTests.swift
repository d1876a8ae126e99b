import Foundation
import Testing

@testable import HeraldCore

/// A user is a value, though its fields are kept behind one reference.
@Suite("User")
struct UserTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = User(
            uid: "bo",
            name: "Bo",
            avatar: "https://a/bo.png",
            tags: ["vip"],
            locale: "fr",
            createdAt: DecisionTests.now,
            updatedAt: DecisionTests.now
        )
        var copy = original
        copy.name = "Bo B."
        copy.tags.append("new")
        copy.locale = nil
        #expect(original.name == "Bo" && original.tags == ["vip"] && original.locale == "fr")
        #expect(copy.name == "Bo B." && copy.tags == ["vip", "new"] && copy.locale == nil)
        #expect(copy.uid == "bo" && copy.avatar == "https://a/bo.png")
        #expect(copy != original)
    }

    @Test func usersAreEqualByTheirFields() {
        let one = User(uid: "bo", name: "Bo", metadata: ["plan": .string("pro")], createdAt: DecisionTests.now, updatedAt: DecisionTests.now)
        let other = User(uid: "bo", name: "Bo", metadata: ["plan": .string("pro")], createdAt: DecisionTests.now, updatedAt: DecisionTests.now)
        #expect(one == other)
        var changed = other
        changed.updatedAt = DecisionTests.now.addingTimeInterval(1)
        #expect(one != changed)
        changed.updatedAt = DecisionTests.now
        #expect(one == changed)
    }
}
