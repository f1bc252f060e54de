package discovery

// AggregatedBuilds returns how many aggregated documents m has encoded.
func AggregatedBuilds(m *Manager) int {
	m.aggMu.Lock()
	defer m.aggMu.Unlock()
	return m.aggBuilds
}
