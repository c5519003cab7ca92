/*
 * A simulated 1 kHz haptic servo loop: 10 s of simulated time (10 000 ticks)
 * with the device sliding over body 0 of the scene and pressing into it four
 * times (from 4 mm above its top to 3 mm inside and back), through a haptic
 * coupler (god-object proxy + spring-damper). Prints every 10th tick, the
 * force statistics and the time per tick.
 *
 * usage: servo MODEL        MODEL is a prepared scene (.exs, memory-mapped)
 *                           or a STEP/IGES file (imported and prepared).
 * Output lines:
 *   tick i=I t=T device=x,y,z force=x,y,z proxy=x,y,z normal=x,y,z contact=C depth=D d=D sd=SD
 *   stats ticks=N contact_ticks=N entries=N max_force=F mean_contact_force=F mean_ns=X p50_ns=X p99_ns=X max_ns=X
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <string.h>
#include <time.h>
#include "common.h"

#define TICKS 10000
#define PI 3.14159265358979323846

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s MODEL.(exs|step|stp|igs|iges)\n", argv[0]); return 2; }
    ext_host_check_abi();
    ext_scene *scene = NULL;
    if (ends_with(argv[1], ".exs"))
        CHECK(ext_scene_load_file(argv[1], &scene));
    else
        CHECK(ext_scene_import(argv[1], NULL, &scene));
    ext_aabb box;
    CHECK(ext_scene_body_bbox(scene, 0, &box));

    ext_coupler_config cfg;
    CHECK(ext_coupler_config_default(&cfg));
    cfg.stiffness = 0.5;  /* N/mm */
    cfg.damping = 0.002;  /* N s/mm */
    ext_coupler *coupler = NULL;
    CHECK(ext_coupler_new(scene, 0, &cfg, &coupler));

    /* the body stays where the file put it: identity pose, given as a 4x4 matrix */
    const double m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    ext_pose pose;
    CHECK(ext_pose_from_matrix(m, 0, &pose));

    double cx = 0.5 * (box.min.x + box.max.x), cy = 0.5 * (box.min.y + box.max.y);
    double ex = 0.5 * (box.max.x - box.min.x), top = box.max.z;
    const double dt = 1e-3;
    static double ns[TICKS];
    int contact_ticks = 0, entries = 0, was_in_contact = 0;
    double max_force = 0.0, sum_contact_force = 0.0;
    for (int i = 0; i < TICKS; i++) {
        double t = i * dt;
        /* slide along x, press in four times */
        double s = sin(PI * t / 2.5);
        ext_vec3 device = {cx + 0.5 * ex * sin(2 * PI * t / 10.0), cy, top + 4.0 - 7.0 * s * s};
        ext_vec3 velocity = {0.5 * ex * (2 * PI / 10.0) * cos(2 * PI * t / 10.0), 0.0,
                             -7.0 * 2.0 * s * cos(PI * t / 2.5) * PI / 2.5};
        ext_coupler_output o;
        double t0 = now_ns();
        ext_status st = ext_coupler_tick(coupler, &device, &velocity, &pose, NULL, dt, &o);
        ns[i] = now_ns() - t0;
        if (st != EXT_OK) ext_host_fail("ext_coupler_tick", st); /* a real servo would command zero force */
        double f = sqrt(o.force.x * o.force.x + o.force.y * o.force.y + o.force.z * o.force.z);
        if (f > max_force) max_force = f;
        if (o.contact && !was_in_contact) entries++;
        was_in_contact = o.contact != 0;
        if (o.contact) {
            contact_ticks++;
            sum_contact_force += f;
        }
        if (i % 10 == 0)
            printf("tick i=%d t=%.3f device=%.17g,%.17g,%.17g force=%.17g,%.17g,%.17g proxy=%.17g,%.17g,%.17g "
                   "normal=%.17g,%.17g,%.17g contact=%u depth=%.17g d=%.17g sd=%.17g\n",
                   i, t, device.x, device.y, device.z, o.force.x, o.force.y, o.force.z, o.proxy.x, o.proxy.y,
                   o.proxy.z, o.normal.x, o.normal.y, o.normal.z, o.contact, o.depth, o.witness.distance,
                   o.witness.signed_distance);
    }
    double sum = 0.0;
    for (int i = 0; i < TICKS; i++) sum += ns[i];
    qsort(ns, TICKS, sizeof ns[0], cmp_double);
    printf("stats ticks=%d contact_ticks=%d entries=%d max_force=%.6g mean_contact_force=%.6g mean_ns=%.1f "
           "p50_ns=%.1f p99_ns=%.1f max_ns=%.1f\n",
           TICKS, contact_ticks, entries, max_force, contact_ticks ? sum_contact_force / contact_ticks : 0.0,
           sum / TICKS, ns[TICKS / 2], ns[TICKS * 99 / 100], ns[TICKS - 1]);

    /* bad input is rejected and writes nothing */
    ext_vec3 bad = {NAN, 0.0, 0.0};
    ext_coupler_output untouched;
    memset(&untouched, 0x7f, sizeof untouched);
    ext_coupler_output copy = untouched;
    EXPECT_STATUS(ext_coupler_tick(coupler, &bad, NULL, NULL, NULL, dt, &untouched), EXT_INVALID_ARGUMENT);
    ext_vec3 ok = {cx, cy, top + 1.0};
    EXPECT_STATUS(ext_coupler_tick(coupler, &ok, NULL, NULL, NULL, 0.0, &untouched), EXT_INVALID_ARGUMENT);
    EXPECT_STATUS(ext_coupler_tick(coupler, NULL, NULL, NULL, NULL, dt, &untouched), EXT_NULL_POINTER);
    if (memcmp(&copy, &untouched, sizeof copy) != 0) { fprintf(stderr, "output written on failure\n"); return 1; }
    CHECK(ext_coupler_reset(coupler));
    CHECK(ext_coupler_tick(coupler, &ok, NULL, NULL, NULL, dt, &untouched));

    ext_coupler_free(coupler);
    ext_scene_free(scene);
    printf("done\n");
    return 0;
}
