package discovery

// DocumentBuilds returns how many /apis documents (aggregated and
// legacy) m has encoded.
func DocumentBuilds(m *Manager) int {
	m.aggMu.Lock()
	defer m.aggMu.Unlock()
	return m.aggBuilds
}

// ResourceListBuilds returns how many group version documents m has
// encoded.
func ResourceListBuilds(m *Manager) int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.listBuilds
}

// GzipBuilds returns how many /apis documents m has compressed.
func GzipBuilds(m *Manager) int {
	m.aggMu.Lock()
	defer m.aggMu.Unlock()
	return m.gzBuilds
}
