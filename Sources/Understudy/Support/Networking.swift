// One place for the FoundationNetworking split, so every other file imports Foundation alone.
@_exported import Foundation

#if canImport(FoundationNetworking)
  @_exported import FoundationNetworking
#endif
