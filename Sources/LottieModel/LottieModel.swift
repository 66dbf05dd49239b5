// LottieModel: value types for a Lottie animation and its parser.
