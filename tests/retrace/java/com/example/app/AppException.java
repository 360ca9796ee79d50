package com.example.app;

class AppException extends RuntimeException {
    AppException(String msg, Throwable cause) {
        super(msg, cause);
    }
}
