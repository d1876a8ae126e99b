// HeraldKit re-exports the wire types it uses (PushPlatform, JSONValue, RealtimeEnvelope).
@_exported import HeraldModels
