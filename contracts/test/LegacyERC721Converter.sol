// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";

/// @title The predecessor's converter logic, re-expressed in Solidity 0.8 for gas comparison only.
/// @dev Mirrors MCH+'s ERC721Converter: operators in a mapping, a paused bool in its own slot, pairs in two plain
/// mappings (0 = none), registration requiring the converter to own the Alice token, conversion by approval
/// pulling the user's token with safeTransferFrom and sending the counterpart with safeTransferFrom.
contract LegacyERC721Converter is IERC721Receiver {
    IERC721 public immutable alice;
    IERC721 public immutable bob;
    mapping(address => bool) public isOperator;
    bool public paused;
    mapping(uint256 => uint256) private _aliceToBob;
    mapping(uint256 => uint256) private _bobToAlice;

    constructor(IERC721 alice_, IERC721 bob_) {
        alice = alice_;
        bob = bob_;
        isOperator[msg.sender] = true;
    }

    modifier onlyOperator() {
        require(isOperator[msg.sender], "Must be operator");
        _;
    }

    /// @notice Registers pairs; the converter must own each Alice token.
    function draftAliceTokens(uint256[] calldata aliceIds, uint256[] calldata bobIds) external onlyOperator {
        require(aliceIds.length == bobIds.length);
        for (uint256 i = 0; i < aliceIds.length; i++) {
            require(alice.ownerOf(aliceIds[i]) == address(this), "not owned");
            require(_aliceToBob[aliceIds[i]] == 0, "alice assigned");
            require(_bobToAlice[bobIds[i]] == 0, "bob assigned");
            _aliceToBob[aliceIds[i]] = bobIds[i];
            _bobToAlice[bobIds[i]] = aliceIds[i];
        }
    }

    /// @notice Registers pairs from the Bob side; the converter must own each Bob token (its stock).
    function draftBobTokens(uint256[] calldata bobIds, uint256[] calldata aliceIds) external onlyOperator {
        require(aliceIds.length == bobIds.length);
        for (uint256 i = 0; i < bobIds.length; i++) {
            require(bob.ownerOf(bobIds[i]) == address(this), "not owned");
            require(_bobToAlice[bobIds[i]] == 0, "bob assigned");
            require(_aliceToBob[aliceIds[i]] == 0, "alice assigned");
            _bobToAlice[bobIds[i]] = aliceIds[i];
            _aliceToBob[aliceIds[i]] = bobIds[i];
        }
    }

    /// @notice The paired Bob id, 0 when none.
    function getBobTokenID(uint256 aliceId) public view returns (uint256) {
        return _aliceToBob[aliceId];
    }

    /// @notice Converts through an approval of the caller's Alice token.
    function convertFromAliceToBob(uint256 aliceId) external {
        require(!paused, "Pausable: paused");
        alice.safeTransferFrom(msg.sender, address(this), aliceId);
        bob.safeTransferFrom(address(this), msg.sender, getBobTokenID(aliceId));
    }

    /// @notice Accepts any token, as ERC721Holder does.
    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return IERC721Receiver.onERC721Received.selector;
    }
}
