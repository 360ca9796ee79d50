package com.example.app;

import com.example.util.Checker;

class Worker {
    static void work(int n) {
        step(n);
    }

    static void step(int n) {
        try {
            Checker.check(n * 7, n);
        } catch (IllegalStateException e) {
            throw new AppException("wrapped " + n, e);
        }
    }

    static class Task implements Runnable {
        public void run() {
            work(3);
        }
    }
}
