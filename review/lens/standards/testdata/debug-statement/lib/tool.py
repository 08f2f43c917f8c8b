"""A module that is also a script: its prints are output."""


def main():
    print("hello")


if __name__ == "__main__":
    main()
