/*
 * A 1 kHz haptic loop in C: load a prepared scene, track the closest point of
 * body 0 to a moving device point, and render a spring force that pushes the
 * device out of the body (penalty coupling: F = k * depth * normal while the
 * device is inside, zero outside). The loop runs as fast as it can (a real
 * servo would wait for the next 1 ms tick of the device).
 *
 *   extrack import fixtures/holed_plate.step -o plate.exs
 *   cc -std=c11 -Iinclude examples/c/haptic_loop.c -Ltarget/release -lextrack -lm -o haptic_loop
 *   ./haptic_loop plate.exs [TICKS]
 *
 * This needs only the runtime library: it also links against a build without
 * the toolchain (cargo build --release --no-default-features --lib).
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "extrack.h"

#define PI 3.14159265358979323846

static void check(ext_status st, const char *what) {
    if (st == EXT_OK) return;
    char msg[512];
    ext_last_error_message(msg, sizeof msg);
    fprintf(stderr, "%s: %s: %s\n", what, ext_status_name(st), msg);
    exit(1);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s SCENE.exs [TICKS]\n", argv[0]);
        return 2;
    }
    int ticks = argc > 2 ? atoi(argv[2]) : 3000;
    if (ticks < 1) ticks = 1;

    ext_scene *scene = NULL;
    check(ext_scene_load_file(argv[1], &scene), "ext_scene_load_file");
    ext_aabb box;
    check(ext_scene_body_bbox(scene, 0, &box), "ext_scene_body_bbox");
    ext_point_tracker *tracker = NULL;
    check(ext_point_tracker_new(scene, 0, NULL, &tracker), "ext_point_tracker_new");
    ext_scene_free(scene); /* the tracker keeps the scene data alive */

    /* The device circles above the body's top and dips 2 mm into it once a second. */
    const double dt = 1e-3, stiffness = 0.5; /* s, N/mm */
    const double cx = 0.5 * (box.min.x + box.max.x), cy = 0.5 * (box.min.y + box.max.y);
    const double r = 0.25 * (box.max.x - box.min.x), top = box.max.z;
    double busy = 0.0, max_force = 0.0;
    for (int i = 0; i < ticks; i++) {
        double t = i * dt, w = 2.0 * PI;
        ext_vec3 device = {cx + r * cos(w * t), cy + r * sin(w * t), top + 1.0 - 3.0 * sin(0.5 * w * t) * sin(0.5 * w * t)};
        ext_vec3 velocity = {-r * w * sin(w * t), r * w * cos(w * t), -3.0 * w * sin(0.5 * w * t) * cos(0.5 * w * t)};

        double t0 = now_s();
        ext_closest_point cp;
        check(ext_point_tracker_update(tracker, &device, &velocity, NULL, NULL, i == 0 ? 0.0 : dt, &cp),
              "ext_point_tracker_update");
        busy += now_s() - t0;

        /* spring coupling: push along the outward normal by the penetration depth */
        double depth = cp.has_sign && cp.signed_distance < 0.0 ? -cp.signed_distance : 0.0;
        ext_vec3 force = {stiffness * depth * cp.normal.x, stiffness * depth * cp.normal.y,
                          stiffness * depth * cp.normal.z};
        double f = sqrt(force.x * force.x + force.y * force.y + force.z * force.z);
        if (f > max_force) max_force = f;
        if (i % 250 == 0)
            printf("tick %5d  distance %9.5f mm  signed %9.5f mm  face #%llu  force (%.4f, %.4f, %.4f) N\n", i,
                   cp.distance, cp.has_sign ? cp.signed_distance : NAN, (unsigned long long)cp.face_id, force.x,
                   force.y, force.z);
    }
    printf("ticks %d  max force %.4f N  mean update %.2f us\n", ticks, max_force, 1e6 * busy / ticks);
    ext_point_tracker_free(tracker);
    return 0;
}
