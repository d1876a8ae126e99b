// HeraldKit: the client SDK (issue 7). Depends on HeraldModels only.
@_exported import HeraldModels
