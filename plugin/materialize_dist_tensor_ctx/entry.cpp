// The plugin's descriptor and its one exported symbol.
#include <ptoplug/sdk.hpp>

#include "consistency.h"
#include "pass.h"

namespace {

using ptoplug::plugin::guardedRun;

constexpr char kPassName[] = "MaterializeDistTensorCtx";
constexpr char kMaterialized[] = "DistTensorCtxMaterialized";
constexpr char kConsistent[] = "DistTensorCtxConsistent";

constexpr const char* kRequired[] = {"CommDomainScopesMaterialized", "ReturnParamsExplicit"};
constexpr const char* kProduced[] = {"CommDomainScopesMaterialized", kMaterialized};

constexpr ptoplug::plugin::Plugin kPlugin(
    {.name = "materialize-dist-tensor-ctx", .version = "0.1.0"},  // ABI 1.1 at least: typed attribute and shape reads
    {{.name = kPassName,
      .description = "Adds a CommCtx parameter per DistributedTensor parameter and passes contexts at every call",
      .run = guardedRun<kPassName, ptoplug::mdtc::materializeDistTensorCtx>,
      .required = kRequired,
      .produced = kProduced}},
    {{.property = kMaterialized,
      .description = "No pld.system.get_comm_ctx outside host orchestration",
      .run = guardedRun<kMaterialized, ptoplug::mdtc::verifyDistTensorCtxMaterialized>},
     // Not produced by any pass (pypto has no such property): run on request, --verify or `pto-host verify`.
     {.property = kConsistent,
      .description = "Every call passes, per DistributedTensor parameter, the context of the tensor it passes",
      .run = guardedRun<kConsistent, ptoplug::mdtc::verifyDistTensorCtxConsistent>}});

}  // namespace

PTOPLUG_PLUGIN_ENTRY(kPlugin)
