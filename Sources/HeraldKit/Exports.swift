// HeraldKit re-exports the wire types it uses (PushPlatform, JSONValue, RealtimeEnvelope) and the cards.
@_exported import HeraldCards
@_exported import HeraldModels
