extension Duration {
    /// The duration in seconds, with its fraction (for latency metrics).
    public var totalSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
