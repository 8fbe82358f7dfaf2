#include "driver/progress.h"

#include <sys/mman.h>

#include <new>

namespace ptoplug::host {

ProgressBoard::ProgressBoard(size_t count) : count_(count) {
    void* memory = ::mmap(nullptr, sizeof(WorkerProgress) * (count ? count : 1), PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return;
    slots_ = static_cast<WorkerProgress*>(memory);
    for (size_t i = 0; i < count_; ++i) new (&slots_[i]) WorkerProgress();
}

ProgressBoard::~ProgressBoard() {
    if (slots_) ::munmap(slots_, sizeof(WorkerProgress) * (count_ ? count_ : 1));
}

}  // namespace ptoplug::host
