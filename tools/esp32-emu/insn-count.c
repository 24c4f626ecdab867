/*
 * A QEMU TCG plugin that counts the instructions the emulated ESP32 executes (make esp32-emu-figures).
 * QEMU runs the chip as fast as the host lets it, so time says little about what a request costs the
 * chip; its instructions do. Every instruction adds one to a counter (an inline add, exact even where a
 * block is left early by a window exception or an interrupt); a halted core (WAITI, FreeRTOS's idle)
 * executes none. A thread writes the count to the file named by the plugin's `out=` argument (QEMU
 * keeps `file=` for the plugin's own path) every 10 ms, so a client reads it before and after what it
 * measures. One vCPU (the emulated board runs one core, -accel tcg,thread=single). make
 * esp32-emu-figures compiles it against the QEMU's own qemu-plugin.h and glib.
 *   qemu-system-xtensa … -plugin insn-count.so,out=/tmp/count
 */
#include <glib.h>
#include <qemu-plugin.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t executed;
static char path[256];

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t k = 0; k < n; k++)
        qemu_plugin_register_vcpu_insn_exec_inline(qemu_plugin_tb_get_insn(tb, k), QEMU_PLUGIN_INLINE_ADD_U64, &executed, 1);
}

/* Written to a new file and renamed over the old one: a reader never sees half a number. */
static gpointer writer(gpointer unused)
{
    char next[280];
    snprintf(next, sizeof(next), "%s.new", path);
    for (;;) {
        FILE *f = fopen(next, "w");
        if (f) {
            fprintf(f, "%llu\n", (unsigned long long)__atomic_load_n(&executed, __ATOMIC_RELAXED));
            fclose(f);
            rename(next, path);
        }
        g_usleep(10000);
    }
    return NULL;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    for (int k = 0; k < argc; k++)
        if (strncmp(argv[k], "out=", 4) == 0) g_strlcpy(path, argv[k] + 4, sizeof(path));
    if (!path[0]) {
        fprintf(stderr, "insn-count: no out= argument\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    g_thread_new("insn-count", writer, NULL);
    return 0;
}
