/*
** nvtx-inject.c: a minimal NVTX 3 injection library that writes each range
** push and pop to stderr ("nvtx: push <name>", "nvtx: pop"), so that
** ga.profiler's ranges can be checked where no Nsight tool is installed
** (spec/profiler/profiler_spec.lua, tools/nvtx-check.sh). NVTX loads it
** from NVTX_INJECTION64_PATH at the process's first NVTX call, as Nsight
** Systems loads its own:
**   cc -shared -fPIC -I/usr/local/cuda/include -o nvtx-inject.so tools/nvtx-inject.c
**   NVTX_INJECTION64_PATH=$PWD/nvtx-inject.so lua5.4 script.lua
*/
#include <stdio.h>
#include <nvtx3/nvToolsExt.h>

static int push_a(const char *message) {
  fprintf(stderr, "nvtx: push %s\n", message);
  return 0;
}

static int push_ex(const nvtxEventAttributes_t *a) {
  if (a->messageType == NVTX_MESSAGE_TYPE_ASCII)
    fprintf(stderr, "nvtx: push %s (color 0x%08x)\n", a->message.ascii, (unsigned)a->color);
  else
    fprintf(stderr, "nvtx: push (a message of type %d)\n", (int)a->messageType);
  return 0;
}

static int pop(void) {
  fprintf(stderr, "nvtx: pop\n");
  return 0;
}

__attribute__((visibility("default")))
int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table) {
  const NvtxExportTableCallbacks *cb = (const NvtxExportTableCallbacks *)get_table(NVTX_ETID_CALLBACKS);
  NvtxFunctionTable table = NULL;
  unsigned int size = 0;
  if (!cb || !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) || !table) return 0;
  if (size < NVTX_CBID_CORE_RangePop) return 0;   /* size: the last valid index */
  *table[NVTX_CBID_CORE_RangePushA] = (NvtxFunctionPointer)push_a;
  *table[NVTX_CBID_CORE_RangePushEx] = (NvtxFunctionPointer)push_ex;
  *table[NVTX_CBID_CORE_RangePop] = (NvtxFunctionPointer)pop;
  fprintf(stderr, "nvtx: injection loaded\n");
  return 1;
}
