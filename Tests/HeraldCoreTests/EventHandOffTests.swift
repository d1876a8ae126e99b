import Foundation
import HeraldModels
import Testing

@testable import HeraldCore

/// The intake's hand-off to this process's fan-out: bounded, oldest first, and every event it
/// holds (waiting or being worked on) listed for lease renewal.
@Suite("Event hand-off")
struct EventHandOffTests {
    static func events(_ ids: [String]) -> [StoredEvent] {
        ids.map { id in
            StoredEvent(
                event: ChatEvent(
                    id: id,
                    appId: "app1",
                    clientId: nil,
                    receivedAt: Date(timeIntervalSince1970: 0),
                    body: .read(ReadEvent(uid: "bo", conversationId: "c", messageId: nil, readAt: Date(timeIntervalSince1970: 0)))
                ),
                status: .fanningOut
            )
        }
    }

    @Test func aFullHandOffSendsEventsToTheTableAndAsksForAClaim() throws {
        let handOff = EventHandOff(capacity: 3, claimInterval: .seconds(3_600))
        #expect(handOff.reserve(2, bytes: 0))
        #expect(!handOff.reserve(2, bytes: 0), "past capacity: store them unclaimed")
        let ticket = try #require(handOff.claimTicket(), "and the fan-out is told to claim from the table")
        #expect(handOff.claimTicket() != nil, "by every worker, until a claim comes back short")
        handOff.claimed(1, of: 2, ticket: ticket)
        #expect(handOff.claimTicket() == nil)
        handOff.hand(Self.events(["e1"]), reserved: 2, bytes: 0)  // one of two was an idempotent repeat
        #expect(handOff.count == 1 && handOff.reserve(2, bytes: 0))
        handOff.cancel(2, bytes: 0)
        #expect(handOff.reserve(2, bytes: 0))
    }

    @Test func thePostsBytesBoundWhatWaitsAndAreGivenBackAsEventsAreTaken() {
        let handOff = EventHandOff(capacity: 100, byteCapacity: 1_000, claimInterval: .seconds(3_600))
        #expect(handOff.reserve(2, bytes: 5_000), "a post larger than the bound goes in when nothing waits")
        #expect(!handOff.reserve(1, bytes: 1), "and nothing else while it does")
        handOff.hand(Self.events(["e1", "e2"]), reserved: 2, bytes: 5_000)
        #expect(handOff.bytes == 5_000)
        #expect(handOff.take(1).map(\.event.id) == ["e1"] && handOff.bytes == 2_500, "each event carries its share of its post")
        #expect(handOff.take(1).map(\.event.id) == ["e2"] && handOff.bytes == 0)

        #expect(handOff.reserve(3, bytes: 600))
        #expect(!handOff.reserve(1, bytes: 500), "600 reserved and 500 more is past 1,000")
        #expect(handOff.reserve(1, bytes: 400))
        handOff.hand(Self.events(["e3", "e4"]), reserved: 3, bytes: 600)  // one of three was an idempotent repeat
        #expect(handOff.bytes == 400 + 400, "the repeat's share is given back")
        handOff.cancel(1, bytes: 400)
        handOff.requeue(Self.events(["e2"]))
        #expect(handOff.bytes == 400, "a next page is counted in no post")
        #expect(handOff.take(5).map(\.event.id) == ["e3", "e4", "e2"] && handOff.bytes == 0)
    }

    @Test func eventsAreTakenOldestFirstAndHeldUntilReleased() {
        let handOff = EventHandOff(capacity: 10)
        _ = handOff.reserve(3, bytes: 300)
        handOff.hand(Self.events(["e1", "e2", "e3"]), reserved: 3, bytes: 300)
        let taken = handOff.take(2)
        #expect(taken.map(\.event.id) == ["e1", "e2"] && handOff.count == 1)
        let holding = handOff.hold(taken.map(\.event.id))
        #expect(handOff.heldIds == ["e1", "e2", "e3"], "waiting and being worked on: both keep their leases")
        // A second batch holding one of them (a group's next page): held until both release.
        let page = handOff.hold(["e2"])
        handOff.release(holding)
        #expect(handOff.heldIds == ["e2", "e3"])
        handOff.release(page)
        #expect(handOff.heldIds == ["e3"])
        handOff.requeue(Self.events(["e1"]))
        #expect(handOff.take(5).map(\.event.id) == ["e3", "e1"], "a next page waits behind what was already there")
    }

    @Test func aFullClaimMeansMoreMayWait() throws {
        let handOff = EventHandOff(capacity: 10, claimInterval: .seconds(3_600))
        let start = ContinuousClock.now
        #expect(handOff.claimTicket(now: start) == nil)
        let forced = try #require(handOff.claimTicket(now: start, force: true))
        handOff.claimed(5, of: 5, ticket: forced)
        let next = try #require(handOff.claimTicket(now: start))
        handOff.claimed(2, of: 5, ticket: next)
        #expect(handOff.claimTicket(now: start) == nil)
        #expect(handOff.claimTicket(now: start + .seconds(3_601)) != nil, "and now and then anyway, for leases that ran out")
    }

    @Test func eventsNoticedWhileAClaimRunsAreClaimedAfterIt() throws {
        let handOff = EventHandOff(capacity: 10, claimInterval: .seconds(3_600))
        let start = ContinuousClock.now
        handOff.notePending()
        let first = try #require(handOff.claimTicket(now: start))
        let second = try #require(handOff.claimTicket(now: start), "two workers claim at once")
        handOff.notePending()  // stored unclaimed while both claims run
        handOff.claimed(0, of: 5, ticket: first)
        handOff.claimed(3, of: 5, ticket: second)
        let third = try #require(handOff.claimTicket(now: start), "what was noticed during the claims is still to be claimed")
        handOff.claimed(1, of: 5, ticket: third)
        #expect(handOff.claimTicket(now: start) == nil)
    }
}
