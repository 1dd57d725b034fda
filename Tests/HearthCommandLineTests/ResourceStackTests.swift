import HearthCommandLine
import Testing

@Suite("ResourceStack")
struct ResourceStackTests {
    /// Records what was closed, in order.
    final class Closings {
        var names: [String] = []
    }

    struct StepFailed: Error {}

    @Test("closes last-opened first")
    func reverseOrder() {
        let closings = Closings()
        let resources = ResourceStack()
        for name in ["store", "listener", "maintenance"] {
            resources.push { closings.names.append(name) }
        }
        resources.closeAll()
        #expect(closings.names == ["maintenance", "listener", "store"])
    }

    @Test("a failing step closes what the earlier steps opened, then the error goes on")
    func closesOnFailure() {
        let closings = Closings()
        let resources = ResourceStack()
        #expect(throws: StepFailed.self) {
            try resources.unwinding {
                resources.push("store") { closings.names.append($0) }
                resources.push("listener") { closings.names.append($0) }
                throw StepFailed()
            }
        }
        #expect(closings.names == ["listener", "store"])
    }

    @Test("steps that succeed close nothing and return their value")
    func successKeepsResources() {
        let closings = Closings()
        let resources = ResourceStack()
        let store = resources.unwinding { resources.push("store") { closings.names.append($0) } }
        #expect(store == "store")
        #expect(closings.names.isEmpty)
    }

    @Test("each resource closes once, whether failure and shutdown both close")
    func closesOnce() {
        let closings = Closings()
        let resources = ResourceStack()
        try? resources.unwinding {
            resources.push { closings.names.append("store") }
            throw StepFailed()
        }
        resources.closeAll()
        resources.closeAll()
        #expect(closings.names == ["store"])
    }
}
