package bolt

import "syscall"

// mmapFlags has the kernel read the whole data file into the mapping at
// Open (MAP_POPULATE), as etcd's backend does on Linux
// (server/storage/backend/config_linux.go): Open reads every record
// anyway, and one populate costs less than a page fault per page.
const mmapFlags = syscall.MAP_POPULATE
