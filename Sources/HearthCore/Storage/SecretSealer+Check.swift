extension SecretSealer {
    /// Opens `stored` (so that a secret that does not open fails the caller) and counts its form in `inventory`.
    /// Returns the form to rewrite it in when it ``needsResealing(_:)``, else `nil`.
    public func check(_ stored: [UInt8], for field: SecretField, counting inventory: inout SecretInventory) throws
        -> [UInt8]?
    {
        let state = state(of: stored)
        let secret = try open(stored, for: field)
        inventory.count(state)
        return needsResealing(state) ? try seal(secret, for: field) : nil
    }
}
