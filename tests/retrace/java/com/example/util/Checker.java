package com.example.util;

public class Checker {
    public static void check(int value, int limit) {
        if (value > limit)
            fail(value);
    }

    public static int decode(int key) {
        return Integer.parseInt("x" + key);
    }

    private static void fail(int value) {
        throw new IllegalStateException("value " + value);
    }
}
