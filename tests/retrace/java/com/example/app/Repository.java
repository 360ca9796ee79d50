package com.example.app;

import com.example.util.Checker;

class Repository {
    private static int[] cache = new int[4];

    static void load(int key, int seed) {
        int v = fetch(key) + seed;
        store(key, v);
    }

    private static int fetch(int key) {
        return parse(key) * 3;
    }

    private static int parse(int key) {
        if (key > 1)
            return Checker.decode(key);
        return key;
    }

    private static void store(int key, int v) {
        cache[key] = v;
    }
}
